export * from './demo-accounts.ts';
export * from './endpoints.ts';
export * from './history.ts';
export * from './problems.ts';
export * from './resources.ts';
export * from './session-headers.ts';
export * from './timestamps.ts';
export * from './versions.ts';
