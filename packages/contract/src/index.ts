export * from './accounts';
export * from './api-paths';
export * from './categories';
export * from './envelope';
export * from './geo';
export * from './health';
export * from './language';
export * from './messages';
