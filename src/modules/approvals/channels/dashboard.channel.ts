import type { ApprovalChannel } from './channel.port.js';

/** The dashboard is always there: pending approvals are listed at GET /v1/approvals; nothing to send. */
export const dashboardChannel: ApprovalChannel = {
  name: 'dashboard',
  isAvailable: async () => true,
  notifyPending: async () => {},
  notifyResolved: async () => {},
};
