from django.apps import AppConfig


class BenchEndpointsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "bench.endpoints"
    label = "bench_endpoints"
    verbose_name = "Benchmark endpoints"
