import { describe, expect, it } from 'vitest';
import { templatePlaceholders } from '../../src/api/index.js';

describe('templatePlaceholders', () => {
  it('lists the distinct {{n}} of every component string, in numeric order', () => {
    const components = [
      { type: 'HEADER', format: 'TEXT', text: 'Hi {{1}}' },
      { type: 'BODY', text: 'Order {{2}} ships {{10}}; {{1}}, thanks', example: { body_text: [['x']] } },
      { type: 'BUTTONS', buttons: [{ type: 'URL', url: 'https://x.test/{{3}}' }] },
    ];
    expect(templatePlaceholders({ components })).toEqual(['1', '2', '3', '10']);
  });

  it('gives none for a template without placeholders', () => {
    expect(templatePlaceholders({ components: [{ type: 'BODY', text: 'Hello!' }] })).toEqual([]);
  });
});
