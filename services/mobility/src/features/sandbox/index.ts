/** The sandbox feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { sandboxContract } from './sandbox.contract';
export { sandboxTransitionRefusedResponse } from './sandbox.schema';
export { scheduleSandboxExpiry } from './sandbox-expiry';
export { SANDBOX_COURIER_ID } from './sandbox-moves';
export { sandboxHandlers } from './sandbox.handlers';
export { createSandboxExpiryRepository } from './sandbox-expiry.repository';
export { createSandboxService } from './sandbox.service';
