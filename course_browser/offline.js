// Register the offline service worker (sw.js at the site root), once the page
// and Python have had their turn: precaching must not slow the first boot.
import { python } from "./runtime.js";

export function registerOffline() {
  if (globalThis.__courseOffline || !("serviceWorker" in navigator) || !globalThis.isSecureContext) return;
  globalThis.__courseOffline = true;
  const rt = python();
  if (!rt) return;
  const root = new URL("../../", rt.assetsBase);
  const register = () => navigator.serviceWorker.register(new URL("sw.js", root), { scope: root.pathname })
    .catch(() => { /* offline use is a bonus; the course works without it */ });
  const whenIdle = () => ("requestIdleCallback" in globalThis ? requestIdleCallback(register, { timeout: 5000 }) : setTimeout(register, 1000));
  if (rt.state === "ready" || rt.state === "idle") whenIdle();
  else rt.addEventListener("state", function onState(e) {
    if (e.detail.state !== "loading") { rt.removeEventListener("state", onState); whenIdle(); }
  });
}
