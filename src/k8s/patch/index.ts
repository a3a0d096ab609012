export * from './patch';
export * from './apply';
export * from './hints';
export * from './keyed';
export * from './threeWay';
