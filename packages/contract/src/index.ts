export * from './constants';
export * from './accounts';
export * from './billing';
export * from './common-schemas';
export * from './envelope';
export * from './health';
export * from './trading';
