// Our HMAC-SHA256 against the RFC's vectors and against node:crypto on random keys and messages.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { HmacSha256 } from "../../../src/observe/cursor/hmac.js";
import { prng } from "../../support/prng.js";

const hex = (text: string): Uint8Array => Buffer.from(text, "hex");
const ascii = (text: string): Uint8Array => Buffer.from(text, "latin1");
const toHex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");

describe("HMAC-SHA256", () => {
  it("gives RFC 4231's results (test cases 1–4, 6, 7: short, long and over-block keys)", () => {
    const cases: Array<[Uint8Array, Uint8Array, string]> = [
      [new Uint8Array(20).fill(0x0b), ascii("Hi There"), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"],
      [ascii("Jefe"), ascii("what do ya want for nothing?"), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"],
      [new Uint8Array(20).fill(0xaa), new Uint8Array(50).fill(0xdd), "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"],
      [hex("0102030405060708090a0b0c0d0e0f10111213141516171819"), new Uint8Array(50).fill(0xcd), "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"],
      [
        new Uint8Array(131).fill(0xaa),
        ascii("Test Using Larger Than Block-Size Key - Hash Key First"),
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
      ],
      [
        new Uint8Array(131).fill(0xaa),
        ascii("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."),
        "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
      ],
    ];
    for (const [key, message, expected] of cases) expect(toHex(new HmacSha256(key).digest(message))).toBe(expected);
  });

  it("matches node:crypto on 2000 random keys and messages of every length around the block and padding edges", () => {
    const random = prng(4231);
    const bytes = (length: number): Uint8Array => Uint8Array.from({ length }, () => Math.floor(random() * 256));
    for (let i = 0; i < 2000; i++) {
      // Lengths 0–200 cover 55/56/63/64/119/120 (one or two padding blocks) and keys over 64 bytes.
      const key = bytes(Math.floor(random() * 100));
      const message = bytes(i % 201);
      expect(toHex(new HmacSha256(key).digest(message)), `key ${toHex(key)}, message ${toHex(message)}`).toBe(createHmac("sha256", key).update(message).digest("hex"));
    }
  });

  it("keeps no state between digests: the same message gives the same tag after others", () => {
    const mac = new HmacSha256(ascii("a key"));
    const first = toHex(mac.digest(ascii("payload")));
    mac.digest(new Uint8Array(300).fill(7));
    expect(toHex(mac.digest(ascii("payload")))).toBe(first);
  });
});
