/**
 * The service mounts the interface here (SPEC §3), so `{base_url}` is `http://host:port/api`. A module of its own:
 * the dashboard's default settings need it before anything loads the endpoint catalogue.
 */
export const API_PREFIX = '/api';
