import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoNextSteps } from '../../src/cli/demo-next.js';

describe("the demo's next steps", () => {
  it('from an installed program: `outreach`, and a copy of the example job the package ships, by its full path', () => {
    const pkg = path.join('/usr', 'lib', 'node_modules', 'outreach');
    const lines = demoNextSteps(pkg, '/home/ana/campaigns');
    expect(lines.join('\n')).not.toContain('npx');
    expect(lines).toContain('cp /usr/lib/node_modules/outreach/jobs/black-friday.json black-friday.json   # the example job; set its channel_id, template and contacts');
    expect(lines.at(-1)).toBe('outreach plan black-friday.json && outreach run black-friday.json');
  });

  it('from a checkout of outreach: `npx outreach` and the example job where it is', () => {
    const lines = demoNextSteps('/src/outreach', '/src/outreach');
    expect(lines.at(-1)).toBe('npx outreach plan jobs/black-friday.json && npx outreach run jobs/black-friday.json');
    expect(lines.join('\n')).not.toContain('cp ');
  });

  it('quotes a package path with spaces', () => {
    expect(demoNextSteps("/Users/ana/My Tools/outreach", '/tmp')).toContain("cp '/Users/ana/My Tools/outreach/jobs/black-friday.json' black-friday.json   # the example job; set its channel_id, template and contacts");
  });
});
