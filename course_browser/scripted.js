// Inlined in the <head> of pages with a lock or a recap: marks the page as scripted
// before its first paint. course.css hides every locked part of a scripted page until
// level.js has read which are open (no answer flashes by), while a page read with no
// JavaScript shows all of it.
document.documentElement.classList.add("course-js");
