import fs from 'node:fs';

/** A field of /proc/<pid>/status in kB (VmRSS: resident now, VmHWM: peak resident so far). */
export function procStatusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Samples VmRSS of a process every `everyMs` until stopped; returns the highest value seen. */
export function sampleRss(pid: number, everyMs = 50): { stop(): number } {
  let peak = procStatusKb(pid, 'VmRSS');
  const timer = setInterval(() => {
    peak = Math.max(peak, procStatusKb(pid, 'VmRSS'));
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, procStatusKb(pid, 'VmRSS'));
    },
  };
}

/** CPU time (user + system) a process has used so far, in seconds (/proc/<pid>/stat, 100 ticks/s). */
export function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The kernel's count of connections dropped because a listen queue was full (TcpExt ListenOverflows). */
export function listenOverflows(): number {
  try {
    const lines = fs.readFileSync('/proc/net/netstat', 'utf8').split('\n');
    const i = lines.findIndex((l) => l.startsWith('TcpExt:'));
    const keys = (lines[i] ?? '').split(/\s+/);
    const values = (lines[i + 1] ?? '').split(/\s+/);
    return Number(values[keys.indexOf('ListenOverflows')] ?? 0);
  } catch {
    return 0;
  }
}
