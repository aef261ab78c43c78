import type { AppDeps } from '../lib/context.ts';
import type { Services } from '../lib/services.ts';

export function createServices(_deps: Omit<AppDeps, 'services'>): Services {
  return {};
}
