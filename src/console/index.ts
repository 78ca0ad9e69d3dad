/** The live console for people: a web page over the store's jobs (read-only views, one action: stop), with /metrics and /healthz. */
export { startConsole, type ConsoleOptions, type RunningConsole } from './server.js';
export { isLoopback } from './access.js';
export { PAGE_SIZE } from './routes.js';
