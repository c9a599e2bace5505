export * from './pagination.js';
export * from './admin-users.js';
export * from './admin-credits.js';
export * from './admin-groups.js';
export * from './audit.js';
export * from './access.js';
export * from './abilities.js';

export * from './admin-models.js';
export * from './model-endpoints.js';
export * from './admin-modules.js';
export * from './admin-settings.js';
