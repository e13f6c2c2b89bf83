export * from './merge';
export * from './partner-api';
