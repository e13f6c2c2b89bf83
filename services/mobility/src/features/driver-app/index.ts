/** The driver-app feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { driverAppContract } from './driver-app.contract';
export { declineOfferResponse, listDriverOffersResponse } from './driver-app.schema';
export { driverAppHandlers } from './driver-app.handlers';
export { currentDriver, requireDriver } from './driver-auth';
