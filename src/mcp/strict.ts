// Unknown argument names are refused, on every tool: a misspelt `waitMS` must not silently not
// wait. The SDK parses a tool's raw shape as a stripping z.object, so tools are served a loose
// object (unknown keys reach the handler) and checked here against the shape, nested objects
// included, with the valid names and a "did you mean" for near misses. Pure.
import { z } from "zod";
import { nearest } from "../nearest.js";

function unwrap(schema: unknown): unknown {
  let inner = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) inner = inner.unwrap();
  return inner;
}

/** The fields of an object schema (or of the object choice of a union) under optional wrappers. */
function objectShape(schema: unknown): Record<string, unknown> | undefined {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject) return inner.shape as Record<string, unknown>;
  if (inner instanceof z.ZodUnion) for (const option of inner.options) if (option instanceof z.ZodObject) return option.shape as Record<string, unknown>;
  return undefined;
}

/** The element schema of an array schema, if it is one. */
function elementOf(schema: unknown): unknown {
  const inner = unwrap(schema);
  return inner instanceof z.ZodArray ? inner.element : undefined;
}

/** What is wrong with the argument names in `args` (undefined: nothing), `where` naming the object. */
export function unknownArguments(args: unknown, shape: Record<string, unknown>, where: string): string | undefined {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return undefined;
  const valid = Object.keys(shape);
  for (const [key, value] of Object.entries(args)) {
    if (!Object.hasOwn(shape, key)) {
      const guess = nearest(key, valid);
      return `${where} has no argument "${key}"${guess ? ` (did you mean "${guess}"?)` : ""}: it takes ${valid.length === 0 ? "no arguments" : valid.join(", ")}`;
    }
    const nested = objectShape(shape[key]);
    const problem = nested && unknownArguments(value, nested, `${where}'s ${key}`);
    if (problem) return problem;
    const items = objectShape(elementOf(shape[key]));
    if (items && Array.isArray(value)) {
      for (const [i, item] of value.entries()) {
        const wrong = unknownArguments(item, items, `${where}'s ${key}[${i}]`);
        if (wrong) return wrong;
      }
    }
  }
  return undefined;
}
