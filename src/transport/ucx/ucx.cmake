# The UCX transport, when UCX is found (pkg-config ucx); defines XB_HAVE_UCX for the registry.
