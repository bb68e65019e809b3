/**
 * In-memory LRU of rendered PDFs, bounded by bytes. The PDF of a document is a pure function of its signed
 * XML and the environment, and the route renders only accepted documents (a terminal state whose signed XML
 * never changes), so the key is the document id plus what would change the output: the status, the
 * update time and the environment. A restart empties the cache (a re-render costs one pool task); storing
 * PDFs would duplicate megabytes per document in the database for a view that is cheap to rebuild.
 */
export interface PdfCache {
  /** The cached PDF, or renders it with `render` (concurrent callers of one key share one render). */
  get(key: string, render: () => Promise<Uint8Array>): Promise<Uint8Array>;
  stats(): { entries: number; bytes: number; maxBytes: number; hits: number; misses: number };
}

/** @param maxBytes total size of the cached PDFs (default 64 MB); a PDF larger than a quarter of it is not cached. */
export function createPdfCache(maxBytes = 64 * 1024 * 1024): PdfCache {
  const entries = new Map<string, Uint8Array>();
  const inflight = new Map<string, Promise<Uint8Array>>();
  let bytes = 0;
  let hits = 0;
  let misses = 0;
  return {
    async get(key, render) {
      const hit = entries.get(key);
      if (hit) {
        hits++;
        entries.delete(key);
        entries.set(key, hit); // most recently used last
        return hit;
      }
      const pending = inflight.get(key);
      if (pending) {
        hits++;
        return pending;
      }
      misses++;
      const p = render()
        .then((pdf) => {
          if (pdf.byteLength <= maxBytes / 4) {
            entries.set(key, pdf);
            bytes += pdf.byteLength;
            for (const [k, v] of entries) {
              if (bytes <= maxBytes) break;
              entries.delete(k);
              bytes -= v.byteLength;
            }
          }
          return pdf;
        })
        .finally(() => inflight.delete(key));
      inflight.set(key, p);
      return p;
    },
    stats: () => ({ entries: entries.size, bytes, maxBytes, hits, misses }),
  };
}
