export * from './service-keys';
export * from './token-format';
export * from './api-keys.repository';
export * from './api-key-view';
export * from './api-keys.service';
export * from './api-key-auth';
export * from './api-keys.routes';
export * from './api-key-cache';
