"""Running an audit: the per-hand loop (:mod:`.hand_loop`, compiled), what both engines share
(:mod:`.common`), per-process tweaks (:mod:`.process`), the local engine (:mod:`.local`, with its
worker processes in :mod:`.worker` and its input batches in :mod:`.batches`) and the Dask engine
(:mod:`.dask`)."""
