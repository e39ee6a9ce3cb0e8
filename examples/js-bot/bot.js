#!/usr/bin/env node
// A minimal Skyarena online bot in JavaScript (Node, @grpc/grpc-js, the repository's .proto files).
//
// It keeps one online version online through the Arena's Online.Connect stream, accepts every
// invitation it is sent, joins the referee named in it with the seat token (Referee.Play) and
// answers each TurnRequest with a legal action: the index of one of the request's
// legal_actions, drawn with a generator seeded by Welcome.bot_seed, so a match replays the same
// way. Any game works this way (Sky Team, Skyjo Action, and the others); a real bot would read
// turn.observation (typed per game, see proto/skyarena/v1/games/*.proto) to choose better.
//
//   node bot.js --arena HOST:PORT --token PLAY_TOKEN --bot NAME [--max-games N] [--games N]
//
// Everything it speaks is in proto/skyarena/v1/online.proto and referee.proto, whose comments
// are the protocol's reference.
'use strict';

const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const CLIENT = 'skyarena-js/0.1.0';
const PROTO_ROOT = process.env.SKYARENA_PROTO_ROOT || path.resolve(__dirname, '..', '..', 'proto');
const MISSED_HEARTBEATS = 3;     // heartbeats not heard before the Connect stream counts as dead
const MAX_BACKOFF_MS = 5000;
const REJOINS = 5;               // Play streams re-opened after a break, per match
// Refusals that connecting again cannot cure: the Arena's message says what to do.
const FINAL = new Set([grpc.status.UNAUTHENTICATED, grpc.status.PERMISSION_DENIED, grpc.status.NOT_FOUND,
  grpc.status.INVALID_ARGUMENT, grpc.status.FAILED_PRECONDITION, grpc.status.ABORTED, grpc.status.UNIMPLEMENTED]);
const REJOINABLE = new Set([grpc.status.UNAVAILABLE, grpc.status.INTERNAL, grpc.status.UNKNOWN]);

function parseArgs(argv) {
  const args = { maxGames: 1, games: 0 };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) usage(`${flag} needs a value`);
    if (flag === '--arena') args.arena = value;
    else if (flag === '--token') args.token = value;
    else if (flag === '--bot') args.bot = value;
    else if (flag === '--max-games') args.maxGames = Number(value);
    else if (flag === '--games') args.games = Number(value);
    else usage(`unknown flag ${flag}`);
  }
  args.arena = args.arena || process.env.SKYARENA_ARENA;
  args.token = args.token || process.env.SKYARENA_TOKEN;
  if (!args.arena || !args.token || !args.bot) usage('--arena, --token and --bot are needed');
  if (!(args.maxGames >= 1 && args.maxGames <= 64)) usage('--max-games is 1 to 64');
  return args;
}

function usage(problem) {
  console.error(`${problem}\nusage: node bot.js --arena HOST:PORT --token PLAY_TOKEN --bot NAME [--max-games N] [--games N]`);
  process.exit(2);
}

function loadProtocol() {
  const definition = protoLoader.loadSync(['skyarena/v1/online.proto', 'skyarena/v1/referee.proto'], {
    includeDirs: [PROTO_ROOT], keepCase: true, longs: String, enums: String, defaults: true, oneofs: true,
  });
  return grpc.loadPackageDefinition(definition).skyarena.v1;
}

// A small seeded generator (mulberry32), so the same bot seed plays the same moves.
function generator(seed) {
  let state = Number(BigInt.asUintN(32, BigInt(seed || 0)));
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Play one seat: Join, then one Answer per TurnRequest, until MatchEnd. Resolves with a line.
function playSeat(v1, invitation, say) {
  const referee = new v1.Referee(invitation.referee, grpc.credentials.createInsecure());
  let random = null;
  let rejoins = 0;
  return new Promise((resolve) => {
    const open = () => {
      const call = referee.Play();
      let ended = false;
      call.on('data', (message) => {
        rejoins = 0;
        if (message.kind === 'welcome') {
          if (random === null) random = generator(message.welcome.bot_seed);
        } else if (message.kind === 'turn') {
          const turn = message.turn;
          const index = Math.floor(random() * turn.legal_actions.length);
          call.write({ answer: { turn: turn.turn, index } });
        } else if (message.kind === 'notice') {
          say(`referee: ${message.notice.message}`);
        } else if (message.kind === 'end') {
          ended = true;
          const end = message.end;
          const seat = invitation.seat;
          const line = end.state === 'MATCH_STATE_FINISHED'
            ? `ranked ${end.result.ranks[seat] + 1} of ${end.result.ranks.length} (${end.result.reason}), `
              + `${end.faults.filter((f) => f.seat === seat).length} fault(s), ${end.decisions} decisions`
            : `aborted: ${end.reason}`;
          call.end();
          referee.close();
          resolve(line);
        }
      });
      call.on('error', (error) => {
        if (ended) return;
        if (REJOINABLE.has(error.code) && rejoins < REJOINS) {
          rejoins += 1;
          say(`match ${invitation.match_id}: stream lost (${error.details}); rejoining (${rejoins}/${REJOINS})`);
          setTimeout(open, 200 * rejoins);
          return;
        }
        referee.close();
        resolve(`did not finish here: ${error.details}`);
      });
      call.write({ join: { token: invitation.seat_token, client: CLIENT } });
    };
    open();
  });
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const v1 = loadProtocol();
  const say = (text) => console.error(text);
  const metadata = new grpc.Metadata();
  metadata.add('authorization', `Bearer ${args.token}`);
  const online = new v1.Online(args.arena, grpc.credentials.createInsecure(), {
    'grpc.keepalive_time_ms': 10000, 'grpc.keepalive_timeout_ms': 5000, 'grpc.keepalive_permit_without_calls': 1,
  });
  const playing = new Set();
  let finished = 0;
  let failures = 0;
  let stream = null;
  let stopping = false;

  const stop = (code) => {
    stopping = true;
    if (stream) stream.cancel();
    online.close();
    process.exitCode = code;
  };

  const take = (invitation) => {
    if (playing.has(invitation.id)) return;  // told again after a reconnection: being played already
    online.AcceptInvitation({ invitation_id: invitation.id }, metadata, { deadline: Date.now() + 10000 },
      (error) => {
        if (error) {
          say(`invitation ${invitation.id} (match ${invitation.match_id}) not taken: ${error.details}`);
          return;
        }
        playing.add(invitation.id);
        say(`${invitation.resume ? 'rejoining' : 'playing'} match ${invitation.match_id} (${invitation.game}, `
          + `${invitation.kind}, seat ${invitation.seat}) on ${invitation.referee}`);
        playSeat(v1, invitation, say).then((line) => {
          say(`match ${invitation.match_id}: ${line}`);
          playing.delete(invitation.id);
          finished += 1;
          if (args.games && finished >= args.games) stop(0);
        });
      });
  };

  const connect = () => {
    if (stopping) return;
    let heartbeatMs = 10000;
    let heard = Date.now();
    stream = online.Connect({ bot: args.bot, max_games: args.maxGames, client: CLIENT }, metadata);
    const watchdog = setInterval(() => {
      if (Date.now() - heard > MISSED_HEARTBEATS * heartbeatMs) stream.cancel();
    }, 500);
    stream.on('data', (event) => {
      heard = Date.now();
      failures = 0;
      if (event.kind === 'connected') {
        const c = event.connected;
        heartbeatMs = c.heartbeat_s * 1000;
        say(`online: ${c.bot} v${c.version} (version ${c.version_id}, ${c.game}) is ${c.status}, `
          + `up to ${c.max_games} match(es) at once`);
      } else if (event.kind === 'invitation') {
        take(event.invitation);
      }
    });
    stream.on('error', (error) => {
      clearInterval(watchdog);
      if (stopping) return;
      if (FINAL.has(error.code)) {
        say(`the Arena refused the connection: ${error.details}`);
        stop(1);
        return;
      }
      failures += 1;
      const wait = Math.min(500 * 2 ** failures, MAX_BACKOFF_MS);
      say(`connection to the Arena lost (${error.details}); connecting again in ${wait / 1000} s`);
      setTimeout(connect, wait);
    });
    stream.on('end', () => clearInterval(watchdog));
  };

  process.on('SIGINT', () => stop(130));
  process.on('SIGTERM', () => stop(143));
  connect();
}

main();
