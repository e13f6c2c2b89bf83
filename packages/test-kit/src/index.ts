export * from './http';
export * from './run-resources';
export * from './process';
export * from './openapi';
