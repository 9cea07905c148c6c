// The data of a report file: JSON, gzipped, in base64, in script blocks of the page; the parts
// kept apart (the deals' trades and prices) are unpacked when first needed.

/** One part of a report file: JSON, gzipped, in base64, in the script blocks of that part. */
async function unpack(doc, name) {
  const base64 = [...doc.querySelectorAll(`script[data-part="${name}"]`)].map((block) => block.textContent).join('');
  let bytes;
  if (Uint8Array.fromBase64) bytes = Uint8Array.fromBase64(base64);
  else {
    const text = atob(base64);
    bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  }
  const json = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
  return JSON.parse(json);
}

/**
 * The data a report file carries; its `parts` (the deals' trades, their prices) are unpacked
 * when first asked for, through {@link part}.
 */
export async function embeddedData(doc) {
  const data = await unpack(doc, 'main');
  data.unpackPart = (name) => unpack(doc, name);
  return data;
}

/** A member of the report data, unpacked on first use when the file keeps it apart. */
export async function part(data, name) {
  if (data[name] === undefined && data.parts?.includes(name)) data[name] = await data.unpackPart(name);
  return data[name];
}
