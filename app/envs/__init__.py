"""Training environments on the server's own rules (the `envs` extra: numpy, Gymnasium, PettingZoo).

- `app.envs.pettingzoo`: a PettingZoo AEC environment per game (`env("mount_drago", players=3)`,
  `env("yutaka", options={"mode": "tactika"})`), every seat an agent;
- `app.envs.gymnasium`: one seat against the server's bot levels (`DragoEnv`, also registered as
  `drago/MountDrago-v0` and `drago/Yutaka-v0` for `gymnasium.make`);
- `app.envs.openspiel`: the games for OpenSpiel (the `openspiel` extra), with chance nodes;
- `app.envs.mount_drago`, `app.envs.yutaka`: each game's fixed action space and observation layout;
- `app.envs.table`: the runner they share (dice, the event log, rewards from the final ranking).

They import the rules (`app.games`) and the bots (`app.bots`) only, never the web app, the store or
a database, and the server never imports them (import-linter contracts). Observations are built
only from a seat's view, the function the server answers with; the Python client rebuilds them from
the view JSON (`drago_client.observation`). docs/training.md is the guide.
"""
