// The Express plumbing every HTTP process shares: app factory, request context and log, error mapping, media types, headers.
export * from './json-app';
export * from './error-handler';
export * from './request-context';
export * from './request-log';
export * from './media-type';
export * from './security-headers';
export * from './validation';
export * from './health';
export * from './metrics';
export * from './openapi';
export * from './pagination';
