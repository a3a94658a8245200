import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KeepAliveConnection } from "../../bench/keep-alive-client";

/** The paid sends' client (bench/keep-alive-client.ts): its answers are what the bench's accounting counts. */
describe("the bench's keep-alive client", () => {
  let server: http.Server;
  let port: number;
  const connectionsSeen = new Set<unknown>();

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      connectionsSeen.add(req.socket);
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        const { answer } = JSON.parse(body) as { answer: string };
        if (answer === "length") {
          res.writeHead(201, { "content-type": "application/json", "content-length": "11" }).end('{"ok":true}');
        } else if (answer === "chunked") {
          // Three chunks and the last one, in separate packets.
          res.writeHead(200, { "content-type": "text/plain" });
          res.write("first,");
          setTimeout(() => res.write("second,"), 5);
          setTimeout(() => res.end("third"), 10);
        } else if (answer === "close") {
          res.writeHead(429, { connection: "close", "content-length": "2" }).end("no");
        } else if (answer === "hang") {
          // Never answers: the client's timeout ends it.
        } else {
          req.socket.destroy();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const head = () => `POST /send HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\n`;

  it("sends request after request on one connection and reads Content-Length and chunked answers whole", async () => {
    connectionsSeen.clear();
    const client = new KeepAliveConnection("127.0.0.1", port);
    const statuses: number[] = [];
    for (const answer of ["length", "chunked", "length", "chunked", "length"]) statuses.push(await client.request(head(), JSON.stringify({ answer })));
    client.close();
    expect(statuses).toEqual([201, 200, 201, 200, 201]);
    expect(connectionsSeen.size).toBe(1);
  });

  it("opens a new connection after an answer with Connection: close, and after a connection lost mid-request", async () => {
    connectionsSeen.clear();
    const client = new KeepAliveConnection("127.0.0.1", port);
    expect(await client.request(head(), JSON.stringify({ answer: "close" }))).toBe(429);
    expect(await client.request(head(), JSON.stringify({ answer: "length" }))).toBe(201);
    await expect(client.request(head(), JSON.stringify({ answer: "drop" }))).rejects.toThrow(/connection closed|ECONNRESET/);
    expect(await client.request(head(), JSON.stringify({ answer: "length" }))).toBe(201);
    client.close();
    expect(connectionsSeen.size).toBe(3);
  });

  it("gives up on an answer that does not come within its timeout", async () => {
    const client = new KeepAliveConnection("127.0.0.1", port, 200);
    await expect(client.request(head(), JSON.stringify({ answer: "hang" }))).rejects.toThrow("timeout");
    expect(await client.request(head(), JSON.stringify({ answer: "length" }))).toBe(201);
    client.close();
  });
});
