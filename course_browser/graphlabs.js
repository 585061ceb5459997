// The two graph labs, as one lazily loaded chunk (see course.js): the step-through
// graph of a level and the live expression graph, both drawn by graphview.js.
export { mountExpression } from "./expression.js";
export { mountLab } from "./lab.js";
