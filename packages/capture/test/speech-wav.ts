import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * The first two sentences of the Rainbow Passage (Fairbanks, 1960), a standard clinical reading
 * passage: ordinary English prose, 29 words and 41 syllables (1.41 syllables per word), so the
 * library's 1.5 syllables per word is not fitted to it.
 */
export const PASSAGE =
  "When the sunlight strikes raindrops in the air, they act as a prism and form a rainbow. " +
  "The rainbow is a division of white light into many beautiful colors.";
export const PASSAGE_WORDS = PASSAGE.split(/\s+/).filter(Boolean).length;

/** A 16-bit mono PCM WAV file's samples and rate. */
interface PcmWav {
  sampleRate: number;
  samples: Int16Array;
}

function parseWav(bytes: Buffer): PcmWav {
  let offset = 12;
  let sampleRate = 0;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString("ascii", offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === "fmt ") {
      if (
        bytes.readUInt16LE(body) !== 1 ||
        bytes.readUInt16LE(body + 2) !== 1 ||
        bytes.readUInt16LE(body + 14) !== 16
      )
        throw new Error("expected 16-bit mono PCM from espeak-ng");
      sampleRate = bytes.readUInt32LE(body + 4);
    }
    if (id === "data") {
      // espeak-ng writing to a file may leave the data size unset (0xFFFFFFFF): read to the end.
      const end = Math.min(bytes.length, body + size);
      const copy = Buffer.from(bytes.subarray(body, end - ((end - body) % 2)));
      return { sampleRate, samples: new Int16Array(copy.buffer, copy.byteOffset, copy.length / 2) };
    }
    offset = body + size + (size % 2);
  }
  throw new Error("no data chunk in the WAV file");
}

function encodeWav({ sampleRate, samples }: PcmWav): Buffer {
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + samples.length * 2, 4);
  header.write("WAVEfmt ", 8, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(samples.length * 2, 40);
  return Buffer.concat([header, Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)]);
}

/** Index of the first and last sample above 1 % of full scale: the edges of the sound. */
function soundEdges(samples: Int16Array): [number, number] {
  const level = 328;
  let first = 0;
  while (first < samples.length && Math.abs(samples[first] ?? 0) < level) first++;
  let last = samples.length - 1;
  while (last > first && Math.abs(samples[last] ?? 0) < level) last--;
  return [first, last];
}

export interface SpeechFile {
  path: string;
  nominalWpm: number;
  /** Words over the sound's span (first to last audible sample, pauses inside included). */
  knownRateWpm: number;
  /** Exact digital silence before the first audible sample. */
  leadSilenceSeconds: number;
  speechSeconds: number;
  totalSeconds: number;
}

/**
 * espeak-ng speaks the passage at `wpm` (its nominal rate; the real one differs, so the known
 * rate is measured from the output), trimmed to its audible span, with exact silence before it
 * and one second after it.
 */
export async function speechFile(
  dir: string,
  options: { wpm: number; leadSilenceSeconds: number; text?: string },
): Promise<SpeechFile> {
  const text = options.text ?? PASSAGE;
  const raw = path.join(dir, `raw-${options.wpm}.wav`);
  await run("espeak-ng", ["-v", "en-us", "-s", String(options.wpm), "-w", raw, text]);
  const wav = parseWav(await readFile(raw));
  const [first, last] = soundEdges(wav.samples);
  const speech = wav.samples.subarray(first, last + 1);
  const lead = Math.round(options.leadSilenceSeconds * wav.sampleRate);
  const samples = new Int16Array(lead + speech.length + wav.sampleRate);
  samples.set(speech, lead);
  const file = path.join(dir, `speech-${options.wpm}-${options.leadSilenceSeconds}.wav`);
  await writeFile(file, encodeWav({ sampleRate: wav.sampleRate, samples }));
  const speechSeconds = speech.length / wav.sampleRate;
  const words = text.split(/\s+/).filter(Boolean).length;
  return {
    path: file,
    nominalWpm: options.wpm,
    knownRateWpm: (words / speechSeconds) * 60,
    leadSilenceSeconds: lead / wav.sampleRate,
    speechSeconds,
    totalSeconds: samples.length / wav.sampleRate,
  };
}

/** `seconds` of exact digital silence at 22.05 kHz (espeak-ng's rate): a microphone nobody speaks into. */
export async function silentFile(dir: string, seconds: number): Promise<string> {
  const sampleRate = 22_050;
  const file = path.join(dir, `silence-${seconds}.wav`);
  await writeFile(file, encodeWav({ sampleRate, samples: new Int16Array(Math.round(seconds * sampleRate)) }));
  return file;
}
