export * from './pagination.js';
export * from './admin-users.js';
export * from './admin-credits.js';
export * from './admin-groups.js';
export * from './audit.js';
export * from './access.js';
export * from './calls.js';
