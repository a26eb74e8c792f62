import { describe, expect, it } from "vitest";
import { isPrivateAddress } from "./address-guard";

describe("isPrivateAddress", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.255.0.9", true],
    ["10.1.2.3", true],
    ["172.16.0.1", true],
    ["172.31.255.255", true],
    ["172.32.0.1", false],
    ["192.168.1.1", true],
    ["169.254.169.254", true], // cloud metadata
    ["100.64.0.1", true],
    ["0.0.0.0", true],
    ["224.0.0.1", true],
    ["255.255.255.255", true],
    ["8.8.8.8", false],
    ["93.184.216.34", false],
    ["::1", true],
    ["::", true],
    ["fe80::1", true],
    ["fd00:ec2::254", true], // AWS metadata over IPv6
    ["fc00::1", true],
    ["::ffff:127.0.0.1", true],
    ["::ffff:7f00:1", true],
    ["::ffff:8.8.8.8", false],
    ["64:ff9b::a9fe:a9fe", true], // NAT64 of 169.254.169.254
    ["2001:db8::1", true],
    ["2606:4700:4700::1111", false],
    ["not-an-ip", true],
    ["", true],
  ])("%s → %s", (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});
