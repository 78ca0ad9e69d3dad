import { describe, expect, it } from 'vitest';
import { connectionConfig } from '../../../src/checkpoint/pg/connection.js';
import { maskUrl, parsePgUrl, StoreUrlError } from '../../../src/checkpoint/pg/url.js';

/** Every printable ASCII character that is not a letter or a digit, between two markers. */
const PASSWORD = 'Zq7 !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~Xk4';

function refusal(value: string): string {
  try {
    parsePgUrl(value);
  } catch (err) {
    expect(err).toBeInstanceOf(StoreUrlError);
    return (err as Error).message;
  }
  throw new Error(`${value} was not refused`);
}

describe('a store URL shown to people', () => {
  it('hides everything between the user name and the last @, whatever the password holds', () => {
    expect(maskUrl(`postgres://special:${PASSWORD}@127.0.0.1:5432/db?sslmode=require`)).toBe('postgres://special:***@127.0.0.1:5432/db?sslmode=require');
    expect(maskUrl('postgres://special:abc#def@127.0.0.1:55432/outreach_sp')).toBe('postgres://special:***@127.0.0.1:55432/outreach_sp');
    expect(maskUrl('postgres://special2:Sec@ret99@127.0.0.1:5432/db')).toBe('postgres://special2:***@127.0.0.1:5432/db');
    expect(maskUrl(`postgres://special:${encodeURIComponent(PASSWORD)}@h/db`)).toBe('postgres://special:***@h/db');
  });

  it('keeps a URL without a password as it is, and hides a password= parameter', () => {
    expect(maskUrl('postgres://outreach@/outreach?host=/run/postgresql')).toBe('postgres://outreach@/outreach?host=/run/postgresql');
    expect(maskUrl('postgres://h/db?user=u&password=s3cret&sslmode=require')).toBe('postgres://h/db?user=u&password=***&sslmode=require');
  });

  it('keeps nothing before the last @ of a value that is not a URL', () => {
    expect(maskUrl(`special:${PASSWORD}@db`)).toBe('***@db');
  });
});

describe('reading a store URL', () => {
  it('refuses a password holding / ? # as written, masked, saying to percent-encode it', () => {
    const message = refusal(`postgres://special:${PASSWORD}@127.0.0.1:5432/db`);
    expect(message).toMatch(/^the store URL postgres:\/\/special:\*\*\*@127\.0\.0\.1:5432\/db cannot be read as written: .*# as %23/);
    expect(message).not.toMatch(/Zq7|Xk4/);
    // Read by a URL parser, "special:5432" would be a host and its port, the rest of the password a database.
    expect(refusal('postgres://special:5432/Zq7@db.example.com/outreach')).not.toContain('Zq7');
  });

  it('reads a percent-encoded password, and one holding only @ and : as written, naming the role', () => {
    expect(parsePgUrl(`postgres://special:${encodeURIComponent(PASSWORD)}@127.0.0.1:5433/db`)).toMatchObject({ place: 'database db on 127.0.0.1:5433', role: 'special', display: 'postgres://special:***@127.0.0.1:5433/db' });
    expect(parsePgUrl('postgres://special2:Sec@ret:99@127.0.0.1/db')).toMatchObject({ place: 'database db on 127.0.0.1:5432', role: 'special2' });
  });

  it('refuses an sslmode libpq does not know, and verify-ca without the CA to check against', () => {
    expect(refusal('postgres://u@h/db?sslmode=no-verify')).toMatch(/says sslmode=no-verify: use disable, prefer, require/);
    expect(refusal('postgres://u@h/db?sslmode=verify-ca')).toMatch(/add sslrootcert=\/path\/to\/ca\.pem/);
  });

  it('takes our own parameters and uselibpqcompat out of what node-postgres is given', () => {
    expect(parsePgUrl('postgres://u@h/db?schema=s1&uselibpqcompat=true&sslmode=require').connectionString).toBe('postgres://u@h/db?sslmode=require');
    expect(parsePgUrl('postgres://u@h/db?schema=s1').connectionString).toBe('postgres://u@h/db');
  });

  it('reads sslmode with libpq\'s meanings, from PGSSLMODE when the URL has none', () => {
    expect(connectionConfig(parsePgUrl('postgres://u@h/db?sslmode=require'), {}).ssl).toEqual({ rejectUnauthorized: false });
    expect(connectionConfig(parsePgUrl('postgres://u@h/db'), { PGSSLMODE: 'require' }).ssl).toEqual({ rejectUnauthorized: false });
    expect(connectionConfig(parsePgUrl('postgres://u@h/db?sslmode=verify-full'), { PGSSLMODE: 'disable' }).ssl).toEqual({});
    expect(connectionConfig(parsePgUrl('postgres://u@h/db?sslmode=disable'), {}).ssl).toBe(false);
    expect(() => connectionConfig(parsePgUrl('postgres://u@h/db'), { PGSSLMODE: 'sometimes' })).toThrow(/^PGSSLMODE=sometimes: use disable, prefer, require/);
  });
});
