import type { Route } from '../router.js';
import { catalogRoutes } from './catalog.js';
import { clientRoutes } from './clients.js';
import { conversationRoutes } from './conversations.js';
import { crmRoutes } from './crm.js';
import { sendRoutes } from './sends.js';

/** Every endpoint of the API document. */
export const apiRoutes: Route[] = [...sendRoutes, ...conversationRoutes, ...catalogRoutes, ...clientRoutes, ...crmRoutes];
