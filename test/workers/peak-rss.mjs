// `node --import ./peak-rss.mjs …`: at exit, prints the process's peak resident memory (kilobytes) on stderr.
process.on('exit', () => process.stderr.write(`\nPEAK_RSS_KB ${process.resourceUsage().maxRSS}\n`));
