import { type Browser, chromium } from "playwright-core";

/**
 * Debian's Chromium (installed by tooling/scripts/test-services.sh), headless, never a downloaded
 * browser. The flags keep it off the network it cannot reach here (background services, QUIC,
 * component updates, sync) and let it run as root in a container.
 */
export const CHROMIUM_PATH = "/usr/bin/chromium";
export const HEADLESS_CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
] as const;

/** A headless Chromium with the house flags plus `extraArgs` (e.g. a fake microphone). */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...HEADLESS_CHROMIUM_ARGS, ...extraArgs] });
}
