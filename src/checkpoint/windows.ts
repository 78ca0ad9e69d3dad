/**
 * The port's 24-hour windows: the last inbound message time per client and per phone, and which
 * phone each client has. Times only grow, so several writers can share them (a lost race can only
 * make a window look older: a template instead of free text, the safe side).
 */

/** What the planner reads, through the runner: the last inbound time (epoch ms) of a phone. */
export interface WindowLookup {
  lastInboundAt(phone: string): number | undefined;
  /**
   * The number of the business (channel id) the phone's last inbound message came to, when known: the
   * number whose 24-hour window is open (a reply in a conversation the store's jobs started is on that
   * conversation's number). Undefined when not known.
   */
  lastInboundChannel(phone: string): number | undefined;
}

/** The windows opened by a process that writes them (the receiver, `sync`). */
export interface WindowStore extends WindowLookup {
  /**
   * An inbound message at `at` (epoch ms) from this client (and phone, when known), to the number `channelId` when known,
   * for the company `company` when known (a company's window store notes its own).
   */
  noteInbound(inbound: { clientId: string; phone?: string; at: number; channelId?: number; company?: number }): void;
  /** The client's phone became known: the phone's window takes the client's. */
  linkPhone(clientId: string, phone: string): void;
  phoneOf(clientId: string): string | undefined;
  lastInboundByPhone(phone: string): number | undefined;
  lastInboundByClient(clientId: string): number | undefined;
  /** Makes the changes since the last flush durable, merged with what other processes wrote (no-op when none). */
  flush(): Promise<void>;
}

/** A window's last inbound message: its time (epoch ms), the number it came to and the company it belongs to, when known. */
export interface InboundMark {
  at: number;
  channel?: number;
  company?: number;
}

/**
 * The mark as `company` sees it (undefined: the store seen whole sees every mark): a window the person
 * opened with another company is none of this one's. A mark of no company counts for every company.
 */
export function markFor(mark: InboundMark | undefined, company: number | undefined): InboundMark | undefined {
  return mark === undefined || company === undefined || mark.company === undefined || mark.company === company ? mark : undefined;
}

/** An inbound mark of these parts, the absent ones left out. */
export function inboundMark(at: number, channel: number | undefined, company: number | undefined): InboundMark {
  return { at, ...(channel !== undefined && { channel }), ...(company !== undefined && { company }) };
}

/**
 * The mark a window keeps of two: the later one, with its own number (a later reply to an unknown
 * number forgets the earlier one's: the template then, the safe side); at the same time, the one that
 * knows its number. `old` is returned (the same object) when it stays.
 */
export function laterInbound(old: InboundMark | undefined, next: InboundMark): InboundMark {
  if (old === undefined || next.at > old.at) return next;
  if (next.at === old.at && ((old.channel === undefined && next.channel !== undefined) || (old.company === undefined && next.company !== undefined))) {
    return { ...old, ...next };
  }
  return old;
}
