/**
 * The port's 24-hour windows: the last inbound message time per client and per phone, and which
 * phone each client has. Times only grow, so several writers can share them (a lost race can only
 * make a window look older: a template instead of free text, the safe side).
 */

/** What the planner reads, through the runner: the last inbound time (epoch ms) of a phone. */
export interface WindowLookup {
  lastInboundAt(phone: string): number | undefined;
}

/** The windows opened by a process that writes them (the receiver, `sync`). */
export interface WindowStore extends WindowLookup {
  /** An inbound message at `at` (epoch ms) from this client (and phone, when known). */
  noteInbound(inbound: { clientId: string; phone?: string; at: number }): void;
  /** The client's phone became known: the phone's window takes the client's. */
  linkPhone(clientId: string, phone: string): void;
  phoneOf(clientId: string): string | undefined;
  lastInboundByPhone(phone: string): number | undefined;
  lastInboundByClient(clientId: string): number | undefined;
  /** Makes the changes since the last flush durable, merged with what other processes wrote (no-op when none). */
  flush(): Promise<void>;
}
