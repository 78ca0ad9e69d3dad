import { audience, type ContactList } from '../app/index.js';

/** How many contacts reply before the campaign (their 24-hour windows open, so they get text + media). */
const DEMO_REPLIES = 12;

export interface DemoAudience {
  /** Every k-th usable contact (DEMO_REPLIES of them). */
  every: string[];
  /** Those whose last_reply column is within the last day (so the simulated platform agrees with the list). */
  listed: string[];
  /** Two other contacts: one replies STOP, one is suppressed by hand. */
  optOut: { stop: string; byHand: string } | undefined;
}

/** Who has written to the company, and who opts out, among the demo's usable contacts. */
export async function demoAudience(list: ContactList, now: number): Promise<DemoAudience> {
  const phones: string[] = [];
  const listed: string[] = [];
  for await (const item of audience(list).items) {
    if (item.kind !== 'contact') continue;
    phones.push(item.contact.phone);
    const last = item.contact.lastInboundAt;
    if (last !== undefined && now - last < 24 * 3_600_000) listed.push(item.contact.phone);
  }
  const step = Math.max(1, Math.floor(phones.length / DEMO_REPLIES));
  const every = phones.filter((phone, i) => i % step === 0 && !listed.includes(phone)).slice(0, DEMO_REPLIES);
  const others = phones.filter((p) => !every.includes(p) && !listed.includes(p));
  const [stop, byHand] = [others[1], others[2]];
  return { every, listed, optOut: stop !== undefined && byHand !== undefined ? { stop, byHand } : undefined };
}
