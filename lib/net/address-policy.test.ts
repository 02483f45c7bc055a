import { describe, expect, it } from "vitest";
import { isLoopbackAddress, isSpecialUseAddress } from "./address-policy";

describe("isSpecialUseAddress", () => {
  it.each([
    "127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
    "192.0.2.1", "198.18.0.1", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1",
    "::ffff:127.0.0.1", "::ffff:10.0.0.1", "2001:db8::1", "64:ff9b::a00:1", "ff02::1", "not-an-ip",
    "::127.0.0.1", "::10.0.0.1", "::a9fe:a9fe", "::8.8.8.8",
  ])("refuses %s", (address) => {
    expect(isSpecialUseAddress(address)).toBe(true);
  });

  it.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e"])("allows public %s", (address) => {
    expect(isSpecialUseAddress(address)).toBe(false);
  });

  it("knows loopback", () => {
    expect(isLoopbackAddress("127.0.0.5")).toBe(true);
    expect(isLoopbackAddress("::1")).toBe(true);
    expect(isLoopbackAddress("::ffff:127.0.0.1")).toBe(true);
    expect(isLoopbackAddress("10.0.0.1")).toBe(false);
  });
});
