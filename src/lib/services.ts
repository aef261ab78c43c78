/**
 * Process-wide services that keep state between requests (the catalogue snapshot, outbound clients).
 * Tests swap members to inject failures; production builds them once in createApp().
 */
export interface Services {
  [name: string]: unknown;
}
