/** The fleet feature's face: what other features and the composition root may use of it (nothing else is imported from outside). */
export { fleetContract } from './fleet.contract';
export { activationCodeResponse, activationCodeValueResponse, driverListResponse, driverProfileResponse, fleetDriverJobResponse, fleetDriverResponse, registerDriverSchema, registeredDriverResponse, telemetryResponse, vehicleResponse } from './fleet.schema';
export { createFleetLocations } from './fleet.locations';
export type { FleetLocations, IndexScope, Telemetry } from './fleet.locations';
export { fleetHandlers } from './fleet.handlers';
export type { FleetHandlerPorts } from './fleet.handlers';
export { createFleetRepository } from './fleet.repository';
export { createFleetService, toDriverView } from './fleet.service';
export type { DriverView, FleetService, OnDriverRegistered } from './fleet.service';
export type { Driver, FleetKind } from './fleet.types';
