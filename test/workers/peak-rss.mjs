// `node --import ./peak-rss.mjs …`: at exit, prints the process's peak resident memory (kilobytes) on stderr.
// Linux: VmHWM, this process's own high-water mark since its exec. getrusage's maxRSS keeps the mark of the
// process it was forked from (the kernel carries it across exec), so a child of a big test process would
// report that process's memory, not its own. Elsewhere (macOS), maxRSS.
import fs from 'node:fs';

function peakKb() {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]);
  } catch {
    // no /proc
  }
  return process.resourceUsage().maxRSS;
}

process.on('exit', () => process.stderr.write(`\nPEAK_RSS_KB ${peakKb()}\n`));
