// Calls of the puzzles API (/api/v1/puzzles/), through the play API's client.
import { request } from "../../games/js/api.js";

export const puzzlesApi = {
  start: ({ kind, size, difficulty, seed }) => {
    const body = { kind };
    if (size) body.size = size;
    if (difficulty) body.difficulty = difficulty;
    if (seed !== undefined) body.seed = seed;
    return request("POST", "puzzles/", body);
  },
  get: (id) => request("GET", `puzzles/${id}/`),
  act: (id, body) => request("POST", `puzzles/${id}/actions/`, body),
  actMany: (id, body) => request("POST", `puzzles/${id}/actions/batch/`, body),
  finish: (id) => request("POST", `puzzles/${id}/finish/`, {}),
};
