import { API_PREFIX } from '../../shared/contract/index.ts';

const PREFIX = API_PREFIX.toLowerCase();

/** Whether a request URL is under /api (routes match case-insensitively, so the prefix does too). */
export function isApiPath(url: string): boolean {
  if (url.length < PREFIX.length || url.slice(0, PREFIX.length).toLowerCase() !== PREFIX) return false;
  const next = url[PREFIX.length];
  return next === undefined || next === '/' || next === '?';
}
