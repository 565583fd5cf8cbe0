export * from './constants';
export * from './accounts';
export * from './common-schemas';
export * from './envelope';
export * from './health';
export * from './trading';
export * from './support';
export * from './admin';
