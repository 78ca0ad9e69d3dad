/** The metrics: their names (one registry per process), and where a one-shot command publishes them (a textfile, a Pushgateway). Imports nothing of the project. */
export { CONTACT_STATUSES, DELIVERY_RESULTS, consoleMetrics, passMetrics, receiverMetrics, runMetrics, type ConsoleMetrics, type ContactStatusLabel, type DeliveryResult, type OptOutSource, type PassMetrics, type ReceiverMetrics, type RunMetrics } from './names.js';
export { publisher, PUBLISH_EVERY_MS, type MetricsTargets, type Publisher, type PublishStep } from './publisher.js';
export { pushGroup, PUSH_JOB, PUSH_TIMEOUT_MS } from './push.js';
export { readTextfileSample, writeTextfile } from './textfile.js';
