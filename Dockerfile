# The same environment as scripts/install.sh builds here, run as a non-root user on 0.0.0.0:7860
# (also what a Docker Space on Hugging Face runs).
FROM python:3.11-slim

RUN apt-get update \
 && apt-get install -y --no-install-recommends build-essential libsndfile1 \
 && rm -rf /var/lib/apt/lists/*
RUN useradd --create-home --uid 1000 user
USER user
WORKDIR /home/user/app

# torch==2.13.0+cpu comes from the PyTorch CPU wheel index (this repo's dev machines have it on disk).
ENV PYTHON=python3.11 \
    PIP_EXTRA_ARGS="--extra-index-url https://download.pytorch.org/whl/cpu"
COPY --chown=user requirements.txt requirements-common.txt requirements-gpu.txt requirements-nodeps.txt ./
COPY --chown=user scripts/install.sh scripts/install.sh
RUN bash scripts/install.sh

COPY --chown=user . .
ENV GRADIO_SERVER_NAME=0.0.0.0 \
    GRADIO_SERVER_PORT=7860 \
    PLAYGROUND_ONLINE=1
EXPOSE 7860
CMD [".venv/bin/python", "app.py"]
