// What a level page holds that can be solved, and how its stars read: shared by the
// level (level.js), its skip test (skip-test.js) and the course map (course-map.js).

export const STAR_COUNT = 3;

export function starsText(stars) {
  return "★".repeat(stars) + "☆".repeat(STAR_COUNT - stars);
}

export function itemId(el) {
  return el.dataset.question || el.dataset.slot;
}

/** Everything on the page that can be solved, split into quiz items and the rest. */
export function items(root) {
  const all = [...root.querySelectorAll(".course-question, .course-exercise")];
  const inQuiz = (el) => !!el.closest(".course-quiz");
  return { quiz: all.filter(inQuiz), work: all.filter((el) => !inQuiz(el)) };
}
