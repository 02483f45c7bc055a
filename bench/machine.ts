// Where and under what conditions the numbers were taken: machine, commit, and how much of the
// CPU other processes used while the bench measured (the machine may be shared).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import { processTree } from "./server";

export function machineInfo() {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
  };
}

export function gitInfo() {
  const git = (...args: string[]) => spawnSync("git", args, { encoding: "utf8" }).stdout?.trim() ?? "";
  return { commit: git("rev-parse", "HEAD"), branch: git("rev-parse", "--abbrev-ref", "HEAD"), dirty: git("status", "--porcelain").length > 0 };
}

function machineJiffies(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0]!;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number) as number[];
  const busy = user! + nice! + system! + irq! + softirq! + (steal ?? 0);
  return { busy, total: busy + idle! + iowait! };
}

function processJiffies(pids: number[]): number {
  let sum = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // utime, stime, cutime, cstime: fields 14-17 of the full line, 12-15 after the name.
      sum += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    } catch {
      // exited
    }
  }
  return sum;
}

/** Share of the machine's CPU time used by processes other than the bench and its server. */
export class OtherLoad {
  private start?: { machine: { busy: number; total: number }; ours: number };
  private otherBusy = 0;
  private total = 0;

  constructor(private readonly ourPids: () => number[]) {}

  begin(): void {
    this.start = { machine: machineJiffies(), ours: processJiffies(this.ourPids()) };
  }

  end(): void {
    if (!this.start) return;
    const m = machineJiffies();
    const ours = processJiffies(this.ourPids()) - this.start.ours;
    this.otherBusy += Math.max(0, m.busy - this.start.machine.busy - ours);
    this.total += m.total - this.start.machine.total;
    this.start = undefined;
  }

  /** Percent of all cores' time, over every begin()/end() span so far. */
  percent(): number {
    return this.total > 0 ? Math.round((1000 * this.otherBusy) / this.total) / 10 : 0;
  }
}

/** The bench's own processes: this one and its children (the bench server among them). */
export const benchPids = () => () => processTree(process.pid);
