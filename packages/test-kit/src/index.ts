export * from './http';
export * from './run-resources';
export * from './global-setup';
export * from './process';
export * from './openapi';
export * from './wait';
export * from './event-stream';
export * from './ports';
