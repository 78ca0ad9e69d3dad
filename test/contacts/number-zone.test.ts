import { describe, expect, it } from 'vitest';
import { numberZone, numberZones } from '../../src/contacts/index.js';

describe("a number's time zone, from the numbering plan (libphonenumber's data)", () => {
  it.each([
    ['+5592981234567', 'America/Manaus'], // Manaus, area code 92
    ['+5511987654321', 'America/Sao_Paulo'],
    ['+5561966701065', 'America/Sao_Paulo'], // Brasília
    ['+5568999123456', 'America/Rio_Branco'], // Acre
    ['+12125550100', 'America/New_York'],
    ['+13105550100', 'America/Los_Angeles'],
    ['+16025550100', 'America/Phoenix'],
    ['+526641234567', 'America/Tijuana'],
    ['+525512345678', 'America/Mexico_City'],
    ['+5493511234567', 'America/Buenos_Aires'],
  ])('%s is in %s', (phone, zone) => {
    expect(numberZone(phone)).toBe(zone);
  });

  it('names no one zone for a number whose plan gives zones that keep different times (then the job\'s default_timezone is the contact\'s)', () => {
    expect(numberZones('+351912345678')).toEqual(['Atlantic/Azores', 'Europe/Lisbon']);
    expect(numberZone('+351912345678')).toBeUndefined();
    expect(numberZone('+80012345678')).toBeUndefined();
  });
});
