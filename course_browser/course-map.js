// The course map on the home page: each level's state, where the learner was, where
// to go on, and the course's end. Level pages write where the learner was (rememberVisit).
import { el } from "./dom.js";
import { STAR_COUNT, starsText } from "./level-items.js";
import { progress, safeUrl } from "./progress.js";

/** Where to go on: the level last visited if it isn't cleared yet, else the first
 * level after it (in the map's order, wrapping round) that isn't. */
function resumeTarget(map) {
  const last = progress.data.last;
  if (!last) return null;
  const links = [...map.querySelectorAll("a[data-level]")];
  const cleared = (link) => !!progress.data.levels[link.dataset.level]?.cleared;
  const at = links.findIndex((link) => link.dataset.level === last.level);
  if (at >= 0 && !cleared(links[at])) {
    const url = safeUrl(last.url); // relative or http(s) only: never javascript: or data:
    return url ? { url, title: cleanTitle(last.title), level: last.level, verb: "Resume" } : null;
  }
  const start = at >= 0 ? at + 1 : 0;
  for (let k = 0; k < links.length; k++) {
    const link = links[(start + k) % links.length];
    if (!cleared(link)) return { url: link.href, title: link.textContent.trim(), level: link.dataset.level, verb: "Next" };
  }
  return null; // every level cleared
}

/** A heading's text without the "¶" permalink Material adds to it. */
function cleanTitle(text) {
  return String(text || "").replace(/\s*¶\s*$/, "").trim();
}

/** Every level of the map cleared: the course is done, and the map says so first. */
function renderFinished(map) {
  const links = [...map.querySelectorAll("a[data-level]")];
  const done = links.length > 0 && links.every((link) => progress.data.levels[link.dataset.level]?.cleared);
  map.querySelector(".course-finished")?.remove();
  if (!done) return;
  const last = links.at(-1);
  map.prepend(el("section", { className: "course-finished admonition success", "aria-label": "Course complete" },
    el("p", { className: "admonition-title", textContent: "Course complete" }),
    el("p", { textContent: `You cleared all ${links.length} levels: the autograd engine you wrote trains a neural network. ` },
      el("a", { href: `${last.href.split("#")[0]}#what-you-built`, textContent: "What you built, and where to go next" }))));
}

export function renderCourseMap(root) {
  for (const map of root.querySelectorAll(".course-map")) {
    const target = resumeTarget(map);
    map.querySelector(".course-resume")?.remove();
    renderFinished(map);
    if (target) {
      map.prepend(el("p", { className: "course-resume" },
        el("a", { href: target.url, className: "md-button md-button--primary", textContent: `${target.verb}: ${target.title}` })));
    }
    for (const link of map.querySelectorAll("a[data-level]")) {
      const here = progress.data.last?.level === link.dataset.level;
      link.parentElement.classList.toggle("is-current", here);
      if (here) link.setAttribute("aria-current", "step");
      else link.removeAttribute("aria-current");
      const mark = link.parentElement.querySelector(".course-map__here");
      if (here && !mark) link.before(el("span", { className: "course-map__here", textContent: "You were here: " }));
      if (!here) mark?.remove();
      const state = progress.data.levels[link.dataset.level];
      let badge = link.parentElement.querySelector(".course-map__state");
      if (!badge) {
        badge = el("span", { className: "course-map__state" });
        link.after(badge);
        if (link.dataset.skipTest) {
          badge.after(el("span", { className: "course-map__skip-test", textContent: "Skip test inside" }));
        }
      }
      const label = !state || !state.started && !state.cleared ? "Not started"
        : state.cleared ? `Cleared ${starsText(state.stars)}` : "In progress";
      badge.textContent = label;
      badge.dataset.state = !state ? "new" : state.cleared ? "cleared" : "started";
      if (state?.cleared) badge.setAttribute("aria-label", `Cleared, ${state.stars} of ${STAR_COUNT} stars`);
    }
  }
}

/** This page as the level the learner was on last: `heading` is its title as shown. */
export function rememberVisit(level, heading) {
  progress.data.last = { url: location.pathname, title: cleanTitle(heading) || level, level, at: Date.now() };
  progress.save();
}
