import { describe, expect, it } from 'vitest';
import { isClearYes } from '../../src/contacts/index.js';

describe('isClearYes', () => {
  it('reads yes, y, true, 1, sim, s, sí, si, x and ✓ as consent', () => {
    for (const cell of ['yes', 'y', 'true', '1', 'sim', 's', 'sí', 'si', 'x', '✓']) expect(isClearYes(cell), cell).toBe(true);
  });

  it('reads the other check marks and the spreadsheet TRUE of Portuguese and Spanish Excel as consent', () => {
    for (const cell of ['✔', '✔️', '✅', '☑️', 'VERDADEIRO', 'Verdadero']) expect(isClearYes(cell), cell).toBe(true);
  });

  it('ignores case, accents and surrounding space', () => {
    for (const cell of ['YES', ' Yes ', 'TRUE', 'Sim', 'SÍ', '\tX\n', 'Y']) expect(isClearYes(cell), cell).toBe(true);
  });

  it('reads empty, no and its translations, 0 and false as no consent', () => {
    for (const cell of [undefined, '', '   ', 'no', 'não', 'nao', 'NÃO', '0', 'false', 'FALSE', 'falso', 'n', 'N']) {
      expect(isClearYes(cell), String(cell)).toBe(false);
    }
  });

  it('reads anything unclear as no consent', () => {
    for (const cell of ['maybe', 'yes?', 'yes.', 'yes no', 'ok', '2', '-1', '1.0', 'si no', 'xx', '?', '-', 'n/a', 'pending', '45717']) {
      expect(isClearYes(cell), cell).toBe(false);
    }
  });

  it('reads an ISO date, with or without a time, as consent', () => {
    for (const cell of ['2025-03-01', '2025-03-01T10:15:00Z', '2025-03-01 10:15', '2025-03-01t10:15:00-03:00', ' 2025-03-01 ']) {
      expect(isClearYes(cell), cell).toBe(true);
    }
  });

  it('reads a day/month/year date (either way round), with or without a time, as consent', () => {
    for (const cell of ['01/03/2025', '1/3/2025', '31/12/2024', '12/31/2024', '01.03.2025', '01-03-2025', '01/03/2025 14:30', '01/03/2025, 14:30:15', '2025/03/01']) {
      expect(isClearYes(cell), cell).toBe(true);
    }
  });

  it('reads a date that does not exist, or a half date, as no consent', () => {
    for (const cell of ['2025-02-30', '31/31/2025', '2025-13-01', '01/03/25', '01/03', '2025-03', '01/03-2025', '01/03/2025 25:00', '2025-03-01 10:75']) {
      expect(isClearYes(cell), cell).toBe(false);
    }
  });

  it('reads a placeholder date before 2000 as no consent', () => {
    for (const cell of ['0001-01-01', '1900-01-01', '1970-01-01T00:00:00Z', '01/01/1970']) expect(isClearYes(cell), cell).toBe(false);
  });

  it('given now, reads a date more than a day ahead as no consent', () => {
    const now = Date.parse('2025-06-01T12:00:00Z');
    expect(isClearYes('2025-06-01', now)).toBe(true);
    expect(isClearYes('2025-06-02', now)).toBe(true);
    expect(isClearYes('2025-06-03', now)).toBe(false);
    expect(isClearYes('2030-01-01', now)).toBe(false);
    expect(isClearYes('2030-01-01')).toBe(true);
    expect(isClearYes('yes', now)).toBe(true);
  });

  it('given now, accepts a day/month date when either reading is not ahead', () => {
    const now = Date.parse('2025-06-01T12:00:00Z');
    expect(isClearYes('03/12/2025', now)).toBe(true); // 12 March, read month first
    expect(isClearYes('13/12/2025', now)).toBe(false); // only 13 December
  });
});
