/** What became of the messages sent, as the store keeps it: the funnel (delivered, read, replied), the replies, and when `track` last read a job. */
export { funnelCounter, funnelOf, ofSent, type Funnel, type FunnelFailure } from './funnel.js';
export { repliesOf } from './replies.js';
export { lastTracked, noteTracked } from './tracked-note.js';
