// Public surface of the pure DXF domain (used by the backend application and the adapters).
export * from './binaryTags';
export * from './documentLoader';
export * from './model';
export * from './tags';
export * from './textEscapes';
export * from './measuredDimensions';
