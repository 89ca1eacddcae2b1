// The watchdog's orders: only a scenario's own server, socket and HOME pass, so a damaged or
// foreign line can never make it kill another server or remove another folder.
import { describe, expect, it } from "vitest";
import { orderLine, parseOrder, type Guarded } from "../../src/golden/watchdog.js";

const NAME = "panescope-golden-1234-0a1b2c3d";
const GUARDED: Guarded = { tmux: "tmux", name: NAME, socket: `/tmp/tmux-1000/${NAME}`, home: "/tmp/panescope-golden-home-Ab12Cd" };

function add(change: Partial<Record<keyof Guarded, unknown>>): string {
  return JSON.stringify({ add: { ...GUARDED, ...change } });
}

describe("watchdog orders", () => {
  it("an add and a drop read back as they were written", () => {
    expect(parseOrder(orderLine({ add: GUARDED }).trimEnd())).toEqual({ add: GUARDED });
    expect(parseOrder(orderLine({ drop: NAME }).trimEnd())).toEqual({ drop: NAME });
  });

  it("a line that is not an order is ignored", () => {
    for (const line of ["", "{", "null", "42", '"add"', "{}", '{"add":null}', '{"drop":7}', '{"add":{"name":"x"}}']) expect(parseOrder(line), line).toBeUndefined();
  });

  it("a server that is not a golden scenario's is never named", () => {
    for (const name of ["default", "panescope-test-1-0a1b2c3d", `${NAME}x`, "panescope-golden-1-0A1B2C3D", "../panescope-golden-1-0a1b2c3d"]) {
      expect(parseOrder(add({ name, socket: `/tmp/tmux-1000/${name}` })), name).toBeUndefined();
      expect(parseOrder(JSON.stringify({ drop: name })), name).toBeUndefined();
    }
  });

  it("a socket that is not the name's own file is refused", () => {
    for (const socket of [`tmp/${NAME}`, "/tmp/tmux-1000/default", `/tmp/${NAME}/x`, `/tmp/${NAME}\0`]) expect(parseOrder(add({ socket })), socket).toBeUndefined();
  });

  it("a HOME that is not one the launch made is refused", () => {
    for (const home of ["/home/me", "/tmp", "relative/panescope-golden-home-x", "/tmp/panescope-golden-home-x/../..", "/tmp//panescope-golden-home-x", "/tmp/panescope-golden-home-x\0"]) {
      expect(parseOrder(add({ home })), home).toBeUndefined();
    }
  });

  it("an empty tmux binary or a field of the wrong type is refused", () => {
    expect(parseOrder(add({ tmux: "" }))).toBeUndefined();
    expect(parseOrder(add({ home: 3 }))).toBeUndefined();
  });
});
